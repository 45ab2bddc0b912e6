import { useEffect, useId, useRef, useState } from 'react';
import { Link, NavLink, useNavigate } from 'react-router';
import { isAdmin, isApproved, useSession, type User } from '@/lib/auth';
import { useRosterLinks } from '@/lib/roster';
import { useSignInDialog } from '@/lib/sign-in-dialog';
import { cn } from '@/lib/cn';
import { Badge, Button } from '@/components/ui';
import { LogoMark, PRODUCT_NAME } from './logo';

interface NavItem {
  to: string;
  label: string;
}

type RosterLinks = ReturnType<typeof useRosterLinks>;
const NO_ROSTER_LINKS: RosterLinks = { classes: false, schools: false };

/**
 * Spec section 2: Lessons and Tools for everyone; My Profile and Chatroom when approved; Admin Dashboard for admins.
 * The district (issue #36) adds My Classes for someone with classes and Schools for a school administrator.
 */
export function navItemsFor(user: User | null, roster: RosterLinks = NO_ROSTER_LINKS): NavItem[] {
  const items: NavItem[] = [
    { to: '/blog', label: 'Lessons' },
    { to: '/educational-tools', label: 'Tools' },
  ];
  if (isApproved(user)) {
    items.push({ to: '/profile', label: 'My Profile' }, { to: '/listen-to-type', label: 'Chatroom' });
    if (roster.classes) items.push({ to: '/classes', label: 'My Classes' });
    if (roster.schools) items.push({ to: '/schools', label: 'Schools' });
  }
  if (isAdmin(user)) items.push({ to: '/admin', label: 'Admin Dashboard' });
  return items;
}

function linkClass({ isActive }: { isActive: boolean }) {
  return cn(
    'rounded-md px-3 py-2 text-sm font-medium transition-colors',
    isActive ? 'bg-white/15 text-white' : 'text-brand-100 hover:bg-white/10 hover:text-white',
  );
}

function UserChip({ user }: { user: User }) {
  return (
    <div className="flex min-w-0 items-center gap-2 text-sm text-white">
      <span
        aria-hidden="true"
        className="flex size-8 shrink-0 items-center justify-center rounded-full bg-white/15 font-semibold"
      >
        {(user.name || user.username).slice(0, 1).toUpperCase()}
      </span>
      <span className="truncate font-medium">{user.name || user.username}</span>
      {!user.approved ? <Badge tone="warning">Pending</Badge> : null}
      {user.isAdmin ? <Badge tone="purple">Admin</Badge> : null}
    </div>
  );
}

export function Navbar() {
  const { user, logout } = useSession();
  const signIn = useSignInDialog();
  const navigate = useNavigate();
  const [menuOpen, setMenuOpen] = useState(false);
  const [loggingOut, setLoggingOut] = useState(false);
  const menuId = useId();
  const items = navItemsFor(user, useRosterLinks(user));
  const accountButtonRef = useRef<HTMLButtonElement>(null);
  const menuButtonRef = useRef<HTMLButtonElement>(null);
  const accountAreaRef = useRef<HTMLDivElement>(null);
  const signedIn = Boolean(user);
  const before = useRef({ signedIn, dialogOpen: signIn.isOpen });

  // Signing in or out replaces the button that had focus (and the sign-in modal's opener), so focus would drop to
  // the top of the page: keyboard users get it back on the navbar's account button (Logout or Sign In).
  useEffect(() => {
    const prev = before.current;
    before.current = { signedIn, dialogOpen: signIn.isOpen };
    if (signIn.isOpen || (prev.signedIn === signedIn && !prev.dialogOpen)) return;
    const active = document.activeElement;
    const lost = !active || active === document.body || !active.isConnected;
    // React may reuse the focused button's node for the other state's button (Logout becomes Sign Up).
    const reused = prev.signedIn !== signedIn && !!active && !!accountAreaRef.current?.contains(active);
    if (!lost && !reused) return;
    const shown = (el: HTMLElement | null) =>
      !!el && (typeof el.checkVisibility !== 'function' || el.checkVisibility());
    [accountButtonRef.current, menuButtonRef.current].find(shown)?.focus();
  }, [signedIn, signIn.isOpen]);

  const onLogout = async () => {
    setLoggingOut(true);
    try {
      await logout();
    } finally {
      setLoggingOut(false);
      setMenuOpen(false);
      navigate('/');
    }
  };

  const openSignIn = (mode: 'signin' | 'signup') => {
    setMenuOpen(false);
    signIn.open(mode);
  };

  return (
    <header className="sticky top-0 z-40 bg-brand-900 shadow-md">
      <nav aria-label="Main" className="mx-auto flex h-16 max-w-7xl items-center gap-3 px-4 sm:px-6 lg:px-8">
        <Link to="/" className="flex shrink-0 items-center gap-2 rounded-md text-white">
          <LogoMark className="size-8 text-brand-600" />
          <span className="text-base font-bold tracking-tight sm:text-lg">{PRODUCT_NAME}</span>
        </Link>

        <ul className="ml-4 hidden items-center gap-1 lg:flex">
          {items.map((item) => (
            <li key={item.to}>
              <NavLink to={item.to} className={linkClass} end={item.to === '/admin'}>
                {item.label}
              </NavLink>
            </li>
          ))}
        </ul>

        <div ref={accountAreaRef} className="ml-auto hidden items-center gap-3 lg:flex">
          {user ? (
            <>
              <UserChip user={user} />
              <Button
                ref={accountButtonRef}
                variant="inverse"
                size="sm"
                onClick={onLogout}
                loading={loggingOut}
              >
                Logout
              </Button>
            </>
          ) : (
            <>
              <Button
                ref={accountButtonRef}
                variant="ghost"
                size="sm"
                className="text-white hover:bg-white/10"
                onClick={() => openSignIn('signin')}
              >
                Sign In
              </Button>
              <Button variant="secondary" size="sm" onClick={() => openSignIn('signup')}>
                Sign Up
              </Button>
            </>
          )}
        </div>

        <button
          ref={menuButtonRef}
          type="button"
          className="ml-auto inline-flex size-10 items-center justify-center rounded-md text-white hover:bg-white/10 lg:hidden"
          aria-expanded={menuOpen}
          aria-controls={menuId}
          aria-label={menuOpen ? 'Close menu' : 'Open menu'}
          onClick={() => setMenuOpen((v) => !v)}
        >
          <svg
            aria-hidden="true"
            viewBox="0 0 24 24"
            className="size-6"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
          >
            {menuOpen ? <path d="M6 6l12 12M18 6 6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
          </svg>
        </button>
      </nav>

      {menuOpen ? (
        <div id={menuId} className="border-t border-white/10 bg-brand-900 px-4 pb-4 lg:hidden">
          <ul className="flex flex-col gap-1 pt-2">
            {items.map((item) => (
              <li key={item.to}>
                <NavLink
                  to={item.to}
                  className={(s) => cn(linkClass(s), 'block')}
                  end={item.to === '/admin'}
                  onClick={() => setMenuOpen(false)}
                >
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
          <div className="mt-3 border-t border-white/10 pt-3">
            {user ? (
              <div className="flex items-center justify-between gap-3">
                <UserChip user={user} />
                <Button variant="inverse" size="sm" onClick={onLogout} loading={loggingOut}>
                  Logout
                </Button>
              </div>
            ) : (
              <div className="grid grid-cols-2 gap-2">
                <Button variant="inverse" onClick={() => openSignIn('signin')}>
                  Sign In
                </Button>
                <Button variant="secondary" onClick={() => openSignIn('signup')}>
                  Sign Up
                </Button>
              </div>
            )}
          </div>
        </div>
      ) : null}
    </header>
  );
}
