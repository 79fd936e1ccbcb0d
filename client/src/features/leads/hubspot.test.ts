import { describe, expect, it } from 'vitest';
import {
  addressWithoutSession,
  emailFromHubSpotData,
  hubSpotSignalFromMessage,
  isTrustedHubSpotOrigin,
} from './hubspot';

describe('HubSpot form events', () => {
  it('recognises the successful-submission message for this form only', () => {
    const msg = {
      type: 'hsFormCallback',
      eventName: 'onFormSubmitted',
      id: 'form-1',
      data: { submissionValues: { email: 'a@b.co' } },
    };
    expect(hubSpotSignalFromMessage(msg, 'form-1')).toEqual({ kind: 'submitted', email: 'a@b.co' });
    expect(hubSpotSignalFromMessage(msg, 'form-2')).toBeNull();
    expect(hubSpotSignalFromMessage({ ...msg, eventName: 'onFormReady' }, 'form-1')).toBeNull();
    expect(hubSpotSignalFromMessage({ ...msg, type: 'other' }, 'form-1')).toBeNull();
    expect(hubSpotSignalFromMessage('hsFormCallback', 'form-1')).toBeNull();
  });

  it('reads the email from each data shape HubSpot uses', () => {
    expect(
      emailFromHubSpotData([
        { name: 'firstname', value: 'A' },
        { name: 'email', value: ' a@b.co ' },
      ]),
    ).toBe('a@b.co');
    expect(emailFromHubSpotData({ submissionValues: { Email: 'c@d.co' } })).toBe('c@d.co');
    expect(emailFromHubSpotData({ email: 'nope' })).toBeNull();
    expect(emailFromHubSpotData(null)).toBeNull();
  });

  it('trusts only this page and HubSpot origins', () => {
    expect(isTrustedHubSpotOrigin('http://localhost:5000', 'http://localhost:5000')).toBe(true);
    expect(isTrustedHubSpotOrigin('https://forms.hsforms.com', 'http://localhost:5000')).toBe(true);
    expect(isTrustedHubSpotOrigin('https://evilhsforms.com', 'http://localhost:5000')).toBe(false);
    expect(isTrustedHubSpotOrigin('http://forms.hsforms.com', 'http://localhost:5000')).toBe(false);
    expect(isTrustedHubSpotOrigin('null', 'http://localhost:5000')).toBe(false);
  });
});

describe('the page address HubSpot sees', () => {
  it('loses its session parameter, keeping the rest', () => {
    expect(addressWithoutSession('https://app.example/?session=abc&stage=HVAC#x')).toBe('/?stage=HVAC#x');
    expect(addressWithoutSession('https://app.example/audio?session=abc')).toBe('/audio');
    expect(addressWithoutSession('https://app.example/?stage=HVAC')).toBeNull();
  });
});
