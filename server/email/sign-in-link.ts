import { SIGN_IN_LINK_MINUTES } from '../../core/accounts';
import { escapeHtml, safeHref } from './html';
import type { RenderedEmail } from './coaching-summary';

/**
 * The sign-in email: the link and what it does, nothing the requester typed (the address is
 * the recipient, never written into the body), so the form cannot carry anyone's message.
 */
export function renderSignInEmail(link: string): RenderedEmail {
  const subject = 'Your Doorstep sign-in link';
  const text = [
    'Hi there,',
    '',
    'Open this link to sign in to Doorstep and see your practice on any device:',
    link,
    '',
    `The link works once and expires in ${SIGN_IN_LINK_MINUTES} minutes.`,
    "If you didn't ask to sign in, you can ignore this email. Nobody can sign in without the link.",
  ].join('\n');
  const href = escapeHtml(safeHref(link));
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:system-ui,sans-serif;color:#0f172a;max-width:36rem;margin:0 auto;padding:1.5rem">
<p>Hi there,</p>
<p>Open this link to sign in to Doorstep and see your practice on any device:</p>
<p><a href="${href}" style="display:inline-block;background:#2563eb;color:#fff;padding:.75rem 1.25rem;border-radius:.5rem;text-decoration:none;font-weight:600">Sign in to Doorstep</a></p>
<p style="color:#475569;font-size:.9rem">Or copy this address into your browser:<br><span style="word-break:break-all">${escapeHtml(link)}</span></p>
<p style="color:#475569;font-size:.9rem">The link works once and expires in ${SIGN_IN_LINK_MINUTES} minutes. If you didn't ask to sign in, you can ignore this email. Nobody can sign in without the link.</p>
</body></html>
`;
  return { subject, text, html };
}
