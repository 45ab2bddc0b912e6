import type { HttpClient, TestResponse } from '@district/nest-common/testing';

export interface ImageFormOptions {
  field?: string;
  filename?: string;
  type?: string;
}

/** The editor's upload form: multipart, one file in field `image`. */
export function imageForm(bytes: Buffer, options: ImageFormOptions = {}): FormData {
  const form = new FormData();
  form.append(
    options.field ?? 'image',
    new Blob([bytes], { type: options.type ?? 'image/png' }),
    options.filename ?? 'picture.png',
  );
  return form;
}

/** POST /api/upload-image as the editor's form does. */
export function uploadImage(
  client: HttpClient,
  bytes: Buffer,
  options: ImageFormOptions = {},
): Promise<TestResponse<{ url?: string; message?: string }>> {
  return client.request('POST', '/api/upload-image', { multipart: imageForm(bytes, options) });
}

/** The smallest valid PNG (1×1, transparent), plus `extra` bytes after its end to vary its hash and size. */
export function png(extra = 0): Buffer {
  const base = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    'base64',
  );
  return Buffer.concat([base, Buffer.alloc(extra, 7)]);
}
