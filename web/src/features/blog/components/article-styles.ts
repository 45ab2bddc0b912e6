/** Typography for server-rendered lesson HTML (no typography plugin; Tailwind arbitrary variants on the container). */
export const articleClasses = [
  'text-base leading-relaxed text-slate-800',
  '[&_p]:my-4 [&_h1]:mt-8 [&_h1]:text-3xl [&_h1]:font-bold [&_h2]:mt-8 [&_h2]:text-2xl [&_h2]:font-bold',
  '[&_h3]:mt-6 [&_h3]:text-xl [&_h3]:font-semibold [&_h4]:mt-4 [&_h4]:font-semibold',
  '[&_ul]:my-4 [&_ul]:list-disc [&_ul]:pl-6 [&_ol]:my-4 [&_ol]:list-decimal [&_ol]:pl-6 [&_li]:my-1',
  '[&_a]:font-medium [&_a]:text-brand-700 [&_a]:underline [&_blockquote]:my-4 [&_blockquote]:border-l-4',
  '[&_blockquote]:border-brand-200 [&_blockquote]:pl-4 [&_blockquote]:italic [&_img]:my-4 [&_img]:max-w-full [&_img]:rounded-lg',
  '[&_pre]:my-4 [&_pre]:overflow-x-auto [&_pre]:rounded-lg [&_pre]:bg-slate-900 [&_pre]:p-4 [&_pre]:text-slate-100',
  '[&_code]:rounded [&_code]:bg-slate-100 [&_code]:px-1 [&_table]:my-4 [&_table]:w-full [&_td]:border [&_td]:p-2 [&_th]:border [&_th]:p-2',
  '[&_iframe]:my-4 [&_iframe]:aspect-video [&_iframe]:w-full',
].join(' ');
