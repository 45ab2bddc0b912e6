import { useMutation } from '@tanstack/react-query';
import { uploadImageResponseSchema } from '@district/contracts/content';
import { api } from '@/lib/api-client';

/** POST /api/upload-image, multipart field `image`; resolves to the stored image's URL. */
export async function uploadImage(file: File): Promise<string> {
  const form = new FormData();
  form.append('image', file);
  const { url } = await api.post('/api/upload-image', form, { schema: uploadImageResponseSchema });
  return url;
}

export function useUploadImage() {
  return useMutation({ mutationFn: uploadImage });
}
