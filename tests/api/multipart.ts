/** Test helpers for multipart calls: a real multipart body built by the platform's FormData. */

export type FormValue = string | number | boolean | { file: Buffer; name: string; type?: string };

/** Encodes fields (arrays as repeated `name[]`) and files the way a browser would. */
export async function multipartBody(fields: Record<string, FormValue | FormValue[]>): Promise<{ raw: Buffer; contentType: string }> {
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    const values = Array.isArray(value) ? value : [value];
    for (const v of values) {
      if (typeof v === 'object') form.append(key, new Blob([new Uint8Array(v.file)], { type: v.type ?? 'application/octet-stream' }), v.name);
      else form.append(key, String(v));
    }
  }
  const response = new Response(form);
  return { raw: Buffer.from(await response.arrayBuffer()), contentType: response.headers.get('content-type')! };
}

/** Smallest valid files of each kind the API accepts (and one it must refuse). */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
export const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(60, 1), Buffer.from([0xff, 0xd9])]);
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
export const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>');
export const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(100)]);
