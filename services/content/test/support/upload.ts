import type { HttpClient, TestResponse } from '@district/nest-common/testing';

/** POST /api/upload-image as the editor's form does: multipart, one file in field `image`. */
export function uploadImage(
  client: HttpClient,
  bytes: Buffer,
  options: { field?: string; filename?: string; type?: string } = {},
): Promise<TestResponse<{ url?: string; message?: string }>> {
  const form = new FormData();
  form.append(
    options.field ?? 'image',
    new Blob([bytes], { type: options.type ?? 'image/png' }),
    options.filename ?? 'picture.png',
  );
  return client.request('POST', '/api/upload-image', { multipart: form });
}

/** The smallest valid PNG (1×1, transparent), plus `extra` bytes after its end to vary its hash and size. */
export function png(extra = 0): Buffer {
  const base = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
    'base64',
  );
  return Buffer.concat([base, Buffer.alloc(extra, 7)]);
}
