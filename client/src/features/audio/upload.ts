/** Why an upload failed, in words for the rep: the server's own reason when it gave one. */
export class UploadError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
    readonly retryAfterSec: number | null = null,
  ) {
    super(message);
    this.name = 'UploadError';
  }
}

export const UPLOAD_FAILED_MESSAGE = 'Failed to upload audio file. Please try again.';
export const OFFLINE_MESSAGE = 'You are offline. Connect to the internet, then upload again.';

function waitText(sec: number): string {
  if (sec < 90) return `${Math.max(1, Math.round(sec))} seconds`;
  const min = Math.round(sec / 60);
  return min === 1 ? 'a minute' : `${min} minutes`;
}

/** The rep-facing message for a failed upload (429 says when to retry; 413/415 carry the limit). */
export function uploadErrorMessage(input: {
  status: number | null;
  body: string;
  retryAfter: string | null;
  online: boolean;
}): { message: string; retryAfterSec: number | null } {
  if (input.status === null || input.status === 0)
    return {
      message: input.online
        ? 'The server could not be reached. Check your connection and try again.'
        : OFFLINE_MESSAGE,
      retryAfterSec: null,
    };
  let serverMessage = '';
  try {
    const parsed = JSON.parse(input.body) as { error?: { message?: unknown } };
    if (typeof parsed?.error?.message === 'string') serverMessage = parsed.error.message;
  } catch {
    // not our JSON error shape
  }
  const seconds =
    input.retryAfter !== null && /^\d+$/.test(input.retryAfter.trim()) ? Number(input.retryAfter) : null;
  if (input.status === 429) {
    const base = serverMessage || 'Too many uploads from here right now.';
    return {
      message:
        seconds !== null
          ? `${base} You can try again in ${waitText(seconds)}.`
          : `${base} Please wait a little, then try again.`,
      retryAfterSec: seconds,
    };
  }
  return { message: serverMessage || UPLOAD_FAILED_MESSAGE, retryAfterSec: null };
}

/** Multipart upload with progress (fetch cannot report upload progress). */
export interface UploadResult {
  sessionId: string;
  [k: string]: unknown;
}

export function uploadAudio(
  file: File,
  stage: string,
  onProgress: (percent: number) => void,
): { promise: Promise<UploadResult>; abort: () => void } {
  const xhr = new XMLHttpRequest();
  const promise = new Promise<UploadResult>((resolve, reject) => {
    const form = new FormData();
    // Fields first: the server reads `stage` before streaming the file.
    form.append('stage', stage);
    form.append('audio', file, file.name);
    xhr.open('POST', '/api/audio/upload');
    xhr.withCredentials = true;
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          const body = JSON.parse(xhr.responseText) as UploadResult;
          if (!body?.sessionId) throw new Error('missing sessionId');
          onProgress(100);
          resolve(body);
        } catch {
          reject(new UploadError(UPLOAD_FAILED_MESSAGE, xhr.status));
        }
      } else {
        const { message, retryAfterSec } = uploadErrorMessage({
          status: xhr.status,
          body: xhr.responseText,
          retryAfter: xhr.getResponseHeader('retry-after'),
          online: navigator.onLine,
        });
        reject(new UploadError(message, xhr.status, retryAfterSec));
      }
    };
    xhr.onerror = () => {
      const { message } = uploadErrorMessage({
        status: null,
        body: '',
        retryAfter: null,
        online: navigator.onLine,
      });
      reject(new UploadError(message, null));
    };
    xhr.onabort = () => reject(new Error('Upload cancelled'));
    xhr.send(form);
  });
  return { promise, abort: () => xhr.abort() };
}
