import { readToken } from '../../authStorage';
import { apiFetch } from '../../dataProvider/http';
import type { MediaFile } from '../../../contract/media';

/** Uploads an image through POST /media (multipart `file`). */
export async function uploadImage(file: File): Promise<MediaFile> {
  const form = new FormData();
  form.append('file', file);
  form.append('type', 'image');
  return (await apiFetch<{ data: MediaFile }>('/media', { method: 'POST', body: form })).data;
}

/** Fetches a file of an authorised route with the bearer token (an <img> or a link cannot send it). */
export async function fetchAuthorised(url: string, signal?: AbortSignal): Promise<Blob> {
  const token = readToken();
  const res = await fetch(url, { headers: token ? { Authorization: `Bearer ${token}` } : {}, signal });
  if (!res.ok) throw new Error(String(res.status));
  return res.blob();
}

/** Downloads a file of an authorised route under the given name. */
export async function downloadAuthorised(url: string, name: string) {
  const blob = await fetchAuthorised(url);
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

/**
 * Multipart upload with progress (fetch cannot report it): resolves with the JSON answer,
 * rejects with `{ status, body }` on a non-2xx answer.
 */
export function sendWithProgress<T>(method: 'POST' | 'PUT', path: string, form: FormData, onProgress: (percent: number) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, `/api/admin${path}`);
    const token = readToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(Math.round((e.loaded / e.total) * 100));
    };
    xhr.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as T);
      else reject({ status: xhr.status, body });
    };
    xhr.onerror = () => reject({ status: 0, body: undefined });
    xhr.send(form);
  });
}
