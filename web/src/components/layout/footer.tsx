import { Link } from 'react-router';
import { ShellMessages } from '@/config/messages';
import { LogoMark, PRODUCT_NAME } from './logo';

export function Footer() {
  return (
    <footer className="mt-auto border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-7xl flex-col gap-6 px-4 py-8 sm:flex-row sm:items-center sm:justify-between sm:px-6 lg:px-8">
        <div className="flex items-start gap-3">
          <LogoMark className="size-8 shrink-0 text-brand-700" />
          <div>
            <p className="font-semibold text-slate-900">{PRODUCT_NAME}</p>
            <p className="text-sm text-slate-600">{ShellMessages.footerTagline}</p>
          </div>
        </div>
        <nav aria-label="Footer">
          <ul className="flex flex-wrap gap-x-6 gap-y-2 text-sm font-medium">
            <li>
              <Link to="/" className="text-slate-700 hover:text-brand-700">
                Home
              </Link>
            </li>
            <li>
              <Link to="/blog" className="text-slate-700 hover:text-brand-700">
                Blog
              </Link>
            </li>
            <li>
              <Link to="/educational-tools" className="text-slate-700 hover:text-brand-700">
                Tools
              </Link>
            </li>
          </ul>
        </nav>
      </div>
      <div className="border-t border-slate-100 py-4 text-center text-xs text-slate-500">
        © {new Date().getFullYear()} {PRODUCT_NAME}
      </div>
    </footer>
  );
}
