import { API_URL, toQueryString, type Query } from '../dataProvider/http';
import { readToken } from '../authStorage';

/** Downloads a streamed export (`path` under the API) into a file, reporting the bytes received. */
export async function downloadExport(path: string, format: 'csv' | 'xlsx', filter: Query, onProgress: (bytes: number) => void): Promise<void> {
  const qs = toQueryString({ ...filter, format });
  const token = readToken();
  const response = await fetch(`${API_URL}${path}?${qs}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  if (!response.ok || !response.body) {
    const body = (await response.json().catch(() => ({}))) as { message?: string };
    throw new Error(body.message ?? response.statusText);
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.length;
    onProgress(received);
  }
  const disposition = response.headers.get('content-disposition') ?? '';
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? `export.${format}`;
  const url = URL.createObjectURL(new Blob(chunks as BlobPart[], { type: response.headers.get('content-type') ?? 'application/octet-stream' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
