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
          reject(new Error('Upload failed'));
        }
      } else {
        reject(new Error(`${xhr.status}: ${xhr.responseText || xhr.statusText}`));
      }
    };
    xhr.onerror = () => reject(new Error('Upload failed'));
    xhr.onabort = () => reject(new Error('Upload cancelled'));
    xhr.send(form);
  });
  return { promise, abort: () => xhr.abort() };
}
