import type { VoiceMessage } from '../../types';
import { Speaker } from './speaker';
import { completeSentences } from './speech-logic';

export interface DeviceReplyEvents {
  /** A transcript line for the page. */
  emit(message: VoiceMessage): void;
  /** The device voice went quiet (finished or cancelled). */
  onIdle(): void;
}

/**
 * The homeowner's reply spoken with the device's voice: the server streams the reply's text,
 * complete sentences are spoken as they arrive, and the page's transcript shows the words
 * actually spoken (a reply cut off at barge-in keeps only what was said).
 */
export class DeviceReply {
  private readonly speaker: Speaker;
  /** Text of the reply as the server sent it so far, and how much of it is queued to speak. */
  private text = '';
  private queued = 0;
  private final = false;
  /** Sentences of the reply already spoken (what the page shows). */
  private spoken: string[] = [];

  constructor(
    synth: SpeechSynthesis,
    voice: SpeechSynthesisVoice,
    settings: { rate: number; pitch: number },
    private readonly events: DeviceReplyEvents,
  ) {
    this.speaker = new Speaker(synth, voice, settings, {
      onSentence: (s) => this.onSentenceSpoken(s),
      onIdle: () => this.onSpeakerIdle(),
    });
  }

  get speaking(): boolean {
    return this.speaker.speaking;
  }

  level(): number {
    return this.speaker.level();
  }

  /** The reply's text so far from the server. */
  update(text: string, isFinal: boolean): void {
    // A reply that does not continue the one being spoken is a new one.
    if (!text.startsWith(this.text.slice(0, this.queued))) this.reset();
    this.text = text;
    const { sentences, consumed } = completeSentences(text.slice(this.queued));
    this.queued += consumed;
    for (const s of sentences) this.speaker.say(s);
    if (isFinal) {
      const rest = text.slice(this.queued).trim();
      this.queued = text.length;
      if (rest) this.speaker.say(rest);
      this.final = true;
      if (!this.speaker.speaking) this.finish();
    }
  }

  /** Barge-in: stops at once and closes the reply with the words spoken; false if nothing was under way. */
  cutOff(): boolean {
    if (!this.speaker.speaking && !this.text) return false;
    // Cancelling reports idle; the reply is closed here, once, with the words spoken.
    const spoken = this.spoken;
    this.final = false;
    this.speaker.cancel();
    this.spoken = spoken;
    this.finish();
    return true;
  }

  /** Stops speaking without closing the reply (the call is being torn down). */
  cancel(): void {
    this.speaker.cancel();
  }

  reset(): void {
    this.text = '';
    this.queued = 0;
    this.final = false;
    this.spoken = [];
  }

  private onSentenceSpoken(sentence: string): void {
    this.spoken.push(sentence);
    this.events.emit({
      type: 'transcript',
      role: 'assistant',
      transcriptType: 'partial',
      transcript: this.spoken.join(' '),
    });
  }

  private onSpeakerIdle(): void {
    this.events.onIdle();
    if (this.final) this.finish();
  }

  /** The page's final line for the reply: the words actually spoken. */
  private finish(): void {
    const said = this.spoken.join(' ').trim();
    if (said)
      this.events.emit({
        type: 'transcript',
        role: 'assistant',
        transcriptType: 'final',
        transcript: said,
      });
    this.reset();
  }
}
