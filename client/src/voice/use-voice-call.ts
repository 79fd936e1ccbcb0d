import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Stage } from '@core/stages';
import type { TranscriptEntry } from '@core/transcript';
import {
  callReducer,
  initialCallState,
  NOT_INITIALIZED_MESSAGE,
  START_FAILED_MESSAGE,
  VOICE_ERROR_MESSAGE,
  voiceErrorText,
} from './call-state';
import { savesTranscriptOnServer, takesTypedTurns, type ClientConfig } from './engine-registry';
import { createVoiceClient, pickVoiceKind } from './create-client';
import type { EnginesMessage, VoiceClient, VoiceMessage } from './types';

export interface CallEnd {
  /** The server saved the call's transcript itself (and queued its coaching): the page saves nothing. */
  savedByServer: boolean;
}

export interface UseVoiceCallOptions {
  onTranscript(entry: TranscriptEntry): void;
  onCallEnd(end: CallEnd): void;
}

export const CONFIG_QUERY_KEY = ['/api/config'] as const;

/** Runs one call at a time through whichever engine the config and URL select. */
export function useVoiceCall(options: UseVoiceCallOptions) {
  const queryClient = useQueryClient();
  const config = useQuery<ClientConfig>({ queryKey: CONFIG_QUERY_KEY });
  // Known before any call: whether this server's engine takes typed turns ("Type" beside "Talk").
  const canStartTyping =
    config.isSuccess &&
    takesTypedTurns(pickVoiceKind(new URLSearchParams(location.search), config.data ?? null));
  const [state, dispatch] = useReducer(callReducer, initialCallState);
  const [assistantLevel, setAssistantLevel] = useState(0);
  const [assistantSpeaking, setAssistantSpeaking] = useState(false);
  const [engines, setEngines] = useState<EnginesMessage['engines']>([]);
  const [muted, setMutedState] = useState(false);
  const [canMute, setCanMute] = useState(false);
  const [canType, setCanType] = useState(false);
  const [typing, setTyping] = useState(false);
  const clientRef = useRef<VoiceClient | null>(null);
  const detachRef = useRef<(() => void) | null>(null);
  const optionsRef = useRef(options);
  useEffect(() => {
    optionsRef.current = options;
  });

  const detach = useCallback(() => {
    detachRef.current?.();
    detachRef.current = null;
  }, []);

  const start = useCallback(
    async (stage: Stage, sessionId: string | null, opts: { input?: 'audio' | 'text' } = {}) => {
      dispatch({ type: 'start' });
      setTyping(opts.input === 'text');
      setEngines([]);
      const config = await queryClient
        .fetchQuery<ClientConfig>({ queryKey: CONFIG_QUERY_KEY })
        .catch(() => null);
      const params = new URLSearchParams(location.search);
      let client: VoiceClient;
      try {
        client = await createVoiceClient(pickVoiceKind(params, config), { config, params });
      } catch (err) {
        console.error('voice client could not be created', err);
        dispatch({ type: 'error', message: NOT_INITIALIZED_MESSAGE });
        return;
      }
      detach();
      clientRef.current = client;
      setCanMute(typeof client.setMuted === 'function');
      setCanType(typeof client.sendText === 'function');
      const offs = [
        client.on('call-start', () => {
          setMutedState(false);
          dispatch({ type: 'call-start' });
        }),
        client.on('call-end', () => {
          dispatch({ type: 'call-end' });
          setAssistantLevel(0);
          setAssistantSpeaking(false);
          optionsRef.current.onCallEnd({ savedByServer: savesTranscriptOnServer(client.kind) });
        }),
        client.on('message', (message: VoiceMessage) => {
          if (message.type === 'transcript') {
            const m = message as Extract<VoiceMessage, { type: 'transcript'; role: unknown }>;
            if (typeof m.transcript !== 'string' || (m.role !== 'user' && m.role !== 'assistant')) return;
            optionsRef.current.onTranscript({
              role: m.role,
              transcript: m.transcript,
              timestamp: Date.now(),
              transcriptType: m.transcriptType === 'partial' ? 'partial' : 'final',
            });
          } else if (message.type === 'engines' && Array.isArray((message as EnginesMessage).engines)) {
            setEngines((message as EnginesMessage).engines);
          }
        }),
        client.on('error', (error) => {
          console.error('voice error', error);
          dispatch({ type: 'error', message: voiceErrorText(error, VOICE_ERROR_MESSAGE) });
        }),
        client.on('volume-level', (level) => setAssistantLevel(level)),
        client.on('speech-start', () => setAssistantSpeaking(true)),
        client.on('speech-end', () => setAssistantSpeaking(false)),
      ];
      detachRef.current = () => offs.forEach((off) => off());
      try {
        await client.start({
          stage,
          sessionId: sessionId ?? '',
          ...(opts.input ? { input: opts.input } : {}),
        });
      } catch (err) {
        console.error('call failed to start', err);
        dispatch({ type: 'error', message: voiceErrorText(err, START_FAILED_MESSAGE) });
        detach();
        clientRef.current = null;
      }
    },
    [queryClient, detach],
  );

  const stop = useCallback(() => {
    const client = clientRef.current;
    if (!client) {
      dispatch({ type: 'error', message: NOT_INITIALIZED_MESSAGE });
      return;
    }
    client.stop();
  }, []);

  /** Mutes the rep's microphone when the engine can; undefined when it cannot. */
  const setMuted = useCallback((next: boolean) => {
    const client = clientRef.current;
    if (!client?.setMuted) return;
    client.setMuted(next);
    setMutedState(next);
  }, []);

  /** Sends a typed rep turn; throws an Error with a message for the rep when it cannot. */
  const sendText = useCallback((text: string) => {
    const client = clientRef.current;
    if (!client?.sendText) throw new Error('Typing is not available for this call.');
    client.sendText(text);
  }, []);

  useEffect(
    () => () => {
      // Leaving the page hangs up without reporting the end to a page that is gone.
      detach();
      clientRef.current?.stop();
    },
    [detach],
  );

  return {
    ...state,
    start,
    stop,
    assistantLevel,
    assistantSpeaking,
    engines,
    muted,
    setMuted,
    /** Whether the running call's engine can mute the microphone. */
    canMute,
    /** Whether this engine takes typed turns ("Type instead"). */
    canType,
    /** Whether the running call was started for typing (no microphone). */
    typing,
    /** Whether a call can be started for typing, before any call (the engine takes typed turns). */
    canStartTyping,
    sendText,
  };
}
