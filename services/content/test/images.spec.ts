import { createHash } from 'node:crypto';
import { ContentMessages, MAX_IMAGE_BYTES } from '@district/contracts';
import type { HttpClient } from '@district/nest-common/testing';
import { startContent, type ContentTestApp } from './support/content-app';
import { png, uploadImage } from './support/upload';

let app: ContentTestApp;
let admin: HttpClient;

beforeAll(async () => {
  app = await startContent();
  admin = (await app.signIn('admin')).client;
});
afterAll(async () => {
  await app?.close();
});

it('stores an image under its hash and serves it with long cache headers', async () => {
  const bytes = png(10);
  const res = await uploadImage(admin, bytes, { filename: 'evil.html', type: 'text/html' });
  expect(res.status).toBe(201);
  const sha = createHash('sha256').update(bytes).digest('hex');
  expect(res.body.url).toBe(`/uploads/${sha}.png`);
  // The same bytes again: same URL, stored once.
  expect((await uploadImage(admin, bytes)).body.url).toBe(res.body.url);

  const served = await fetch(new URL(res.body.url ?? '', app.url));
  expect(served.status).toBe(200);
  expect(served.headers.get('content-type')).toBe('image/png');
  expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  expect(served.headers.get('x-content-type-options')).toBe('nosniff');
  expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
  const again = await fetch(new URL(res.body.url ?? '', app.url), {
    headers: { 'if-none-match': served.headers.get('etag') ?? '' },
  });
  expect(again.status).toBe(304);
  expect((await fetch(new URL(`/uploads/${'0'.repeat(64)}.png`, app.url))).status).toBe(404);
  expect((await fetch(new URL('/uploads/..%2Fetc%2Fpasswd', app.url))).status).toBe(404);
});

it('checks the type by content, in the spec words', async () => {
  const script = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
  const res = await uploadImage(admin, script, { filename: 'x.png', type: 'image/png' });
  expect(res.status).toBe(400);
  expect(res.body.message).toBe(ContentMessages.selectImageFile);
  const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(100)]);
  expect((await uploadImage(admin, jpeg, { filename: 'a.txt', type: 'text/plain' })).body.url).toMatch(
    /\.jpg$/,
  );
  const wrongField = await uploadImage(admin, png(), { field: 'file' });
  expect(wrongField.status).toBe(400);
  expect(wrongField.body.message).toBe(ContentMessages.selectImageFile);
  const notMultipart = await admin.post('/api/upload-image', { image: 'x' });
  expect(notMultipart.status).toBe(400);
});

it('accepts less than 5 MB and refuses 5 MB or more with 400, in the spec words', async () => {
  const FIVE_MB = 5 * 1024 * 1024;
  // A valid PNG padded after its end: the type is read from the first bytes, so only the size differs.
  const largest = png(FIVE_MB - 1 - png().length);
  expect(largest.length).toBe(FIVE_MB - 1);
  expect((await uploadImage(admin, largest)).status).toBe(201);
  for (const size of [FIVE_MB, FIVE_MB + 1, FIVE_MB + 64 * 1024]) {
    const res = await uploadImage(admin, png(size - png().length));
    expect({ size, status: res.status, body: res.body }).toEqual({
      size,
      status: 400,
      body: expect.objectContaining({ statusCode: 400, message: ContentMessages.imageTooLarge }),
    });
  }
  // The shared constant is the largest size accepted, so the web's check agrees.
  expect(MAX_IMAGE_BYTES).toBe(FIVE_MB - 1);
});

it('lets only admins upload', async () => {
  expect((await uploadImage(app.client(), png(1))).status).toBe(401);
  expect((await uploadImage((await app.signIn('teacher')).client, png(1))).status).toBe(403);
});

it('answers a broken multipart form with 400, in the spec words, never 500 (found by the route fuzzer)', async () => {
  const boundary = 'fuzzboundary';
  const whole = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    png(10),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const cookie = admin.jar.header(new URL('/api/upload-image', admin.baseUrl)) ?? '';
  const broken: Array<[string, Buffer]> = [
    ['cut off in the part header', whole.subarray(0, 60)],
    ['cut off in the file', whole.subarray(0, whole.length - 30)],
    ['malformed part header', Buffer.from(`--${boundary}\r\nno colon here\r\n\r\nx\r\n--${boundary}--\r\n`)],
    ['no closing boundary at all', Buffer.from('just bytes, no parts')],
  ];
  for (const [what, body] of broken) {
    const res = await fetch(new URL('/api/upload-image', app.url), {
      method: 'POST',
      headers: { cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    });
    const answer = (await res.json()) as { message?: string };
    expect(`${what}: ${res.status} ${answer.message}`).toBe(
      `${what}: 400 ${ContentMessages.selectImageFile}`,
    );
  }
});
