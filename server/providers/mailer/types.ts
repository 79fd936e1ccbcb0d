export interface MailMessage {
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
  /** Stable id so a retried send is recognisable downstream. */
  messageId?: string;
  feedbackId?: string;
}

export interface Mailer {
  readonly id: string;
  readonly label: string;
  send(message: MailMessage): Promise<{ messageId: string }>;
  close?(): Promise<void>;
}
