import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '@client/components/ui/use-toast';
import { coachingQueryKey, requestCoaching } from '@client/features/coaching/coaching-api';
import { apiJson, errorMessage } from '@client/lib/request';
import { audioSessionKey, type AudioSessionView } from './audio-session';

/**
 * What the rep can do with an uploaded recording: retry a failed transcription, swap the
 * speakers, and ask for the coaching now. Each keeps the cached recording and coaching in step.
 */
export function useRecordingActions(
  sessionId: string | null,
  on: { retried(): void; swapped(): void; coached(): void },
) {
  const queryClient = useQueryClient();
  const url = (suffix: string) => `/api/audio/${encodeURIComponent(sessionId!)}/${suffix}`;

  const retry = useMutation({
    mutationFn: () => apiJson<AudioSessionView>('POST', url('retry')),
    onSuccess: (updated) => {
      if (updated) queryClient.setQueryData(audioSessionKey(sessionId), updated);
      void queryClient.invalidateQueries({ queryKey: audioSessionKey(sessionId) });
      on.retried();
    },
    onError: (err) =>
      toast({ variant: 'destructive', title: 'Retry failed', description: errorMessage(err) }),
  });

  const swap = useMutation({
    mutationFn: (swapped: boolean) => apiJson<AudioSessionView>('POST', url('swap-speakers'), { swapped }),
    onSuccess: (updated) => {
      if (updated) queryClient.setQueryData(audioSessionKey(sessionId), updated);
      // Coaching was written for the old attribution.
      queryClient.removeQueries({ queryKey: coachingQueryKey('audio', sessionId) });
      on.swapped();
    },
    onError: (err) =>
      toast({ variant: 'destructive', title: 'Could not swap speakers', description: errorMessage(err) }),
  });

  const generate = useMutation({
    mutationFn: () => requestCoaching('audio', sessionId),
    onSuccess: (response) => {
      queryClient.setQueryData(coachingQueryKey('audio', sessionId), response);
      on.coached();
      void queryClient.invalidateQueries({ queryKey: audioSessionKey(sessionId) });
    },
    onError: (err) => {
      console.error('Coaching generation failed', err);
      toast({
        variant: 'destructive',
        title: 'Coaching generation failed',
        description: 'Please try again.',
      });
    },
  });

  return { retry, swap, generate };
}
