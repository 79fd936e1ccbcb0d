import { useEffect, useId, useRef, useState } from 'react';
import { Loader2 } from 'lucide-react';
import {
  hideSessionFromAddress,
  hubSpotSignalFromMessage,
  isTrustedHubSpotOrigin,
  loadHubSpot,
  emailFromHubSpotData,
  type HubSpotSettings,
} from './hubspot';

/**
 * Renders the configured HubSpot form and calls onSubmitted once, on its successful-submission
 * event, with the email when HubSpot reports it. onFailed lets the gate fall back to the
 * built-in form when the script is blocked or unreachable.
 */
export function HubSpotForm({
  settings,
  onSubmitted,
  onFailed,
}: {
  settings: HubSpotSettings;
  onSubmitted: (email: string | null) => void;
  onFailed: () => void;
}) {
  const targetId = `hubspot-form-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const [ready, setReady] = useState(false);
  const handlers = useRef({ onSubmitted, onFailed });
  useEffect(() => {
    handlers.current = { onSubmitted, onFailed };
  });

  useEffect(() => {
    let cancelled = false;
    let done = false;
    // onFormSubmit carries the fields; onFormSubmitted (the success signal) may not.
    let lastEmail: string | null = null;
    const succeed = (email: string | null) => {
      if (done || cancelled) return;
      done = true;
      handlers.current.onSubmitted(email ?? lastEmail);
    };
    const onMessage = (event: MessageEvent) => {
      if (!isTrustedHubSpotOrigin(event.origin, window.location.origin)) return;
      const signal = hubSpotSignalFromMessage(event.data, settings.formId);
      if (!signal) return;
      if (signal.kind === 'submit') lastEmail = signal.email ?? lastEmail;
      else succeed(signal.email);
    };
    window.addEventListener('message', onMessage);

    // The vendor's script sees the page address: not the session id in it.
    hideSessionFromAddress();
    loadHubSpot()
      .then((hbspt) => {
        if (cancelled) return;
        const target = document.getElementById(targetId);
        if (target) target.innerHTML = '';
        hbspt.forms.create({
          region: settings.region,
          portalId: settings.portalId,
          formId: settings.formId,
          target: `#${targetId}`,
          onFormSubmit: (form) => {
            const el = Array.isArray(form) ? form[0] : form;
            const input =
              el instanceof HTMLElement ? el.querySelector<HTMLInputElement>('input[name="email"]') : null;
            if (input?.value) lastEmail = input.value.trim();
          },
          onFormSubmitted: (_form, data) => succeed(emailFromHubSpotData(data)),
        });
        setReady(true);
      })
      .catch(() => {
        if (!cancelled) handlers.current.onFailed();
      });

    return () => {
      cancelled = true;
      window.removeEventListener('message', onMessage);
    };
  }, [settings.formId, settings.portalId, settings.region, targetId]);

  return (
    <div className="text-left">
      {!ready && (
        <p role="status" className="flex items-center gap-2 text-sm text-slate-600">
          <Loader2 className="size-4 animate-spin" aria-hidden="true" />
          Loading the form...
        </p>
      )}
      <div id={targetId} data-testid="hubspot-form" />
    </div>
  );
}
