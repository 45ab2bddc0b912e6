/** Saves bytes the browser built (a PDF) under a file name, without a server round trip. */
export function downloadBytes(bytes: Uint8Array, fileName: string, type = 'application/pdf'): void {
  const blob = new Blob([bytes as BlobPart], { type });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Some browsers start the download asynchronously; revoking at once can cancel it.
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
