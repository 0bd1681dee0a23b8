export type FormReply = { status: number; body: unknown };

/**
 * POSTs a multipart form and resolves with whatever status the server answered (the caller
 * branches on 201/200/409). XMLHttpRequest because only it reports upload progress; a network
 * failure resolves with status 0.
 */
export function postForm(url: string, form: FormData, onProgress?: (fraction: number) => void): Promise<FormReply> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    };
    xhr.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = null;
      }
      resolve({ status: xhr.status, body });
    };
    xhr.onerror = () => resolve({ status: 0, body: null });
    xhr.send(form);
  });
}
