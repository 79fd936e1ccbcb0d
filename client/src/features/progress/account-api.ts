import type { AccountView, Claimable, ProgressView } from '@core/accounts';
import { apiJson, apiRequest } from '@client/lib/request';

/** Who is signed in on this browser (null when nobody is). Never a 401: signed out is an answer. */
export const fetchAccount = () => apiJson<AccountView>('GET', '/api/account');
export const fetchProgress = () => apiJson<ProgressView>('GET', '/api/account/progress');
export const fetchClaimable = () => apiJson<Claimable>('GET', '/api/account/claimable');
export const claimDevice = () => apiJson<Claimable>('POST', '/api/account/claim');
export const askForLink = (email: string) => apiRequest('POST', '/api/account/sign-in-link', { email });
export const signInWithToken = (token: string) =>
  apiJson<AccountView>('POST', '/api/account/sign-in', { token });
export const signOut = () => apiRequest('POST', '/api/account/sign-out');
export const signOutEverywhere = () =>
  apiJson<{ signedOut: number }>('POST', '/api/account/sign-out-everywhere');

export const ACCOUNT_KEY = ['/api/account'] as const;
export const PROGRESS_KEY = ['/api/account/progress'] as const;
export const CLAIMABLE_KEY = ['/api/account/claimable'] as const;
