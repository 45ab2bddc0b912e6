import { useEffect, useMemo, useState } from 'react';
import { IdentityMessages, type Role, type User } from '@district/contracts/identity';
import {
  Badge,
  Button,
  ButtonLink,
  ConfirmDialog,
  QueryState,
  SelectField,
  Table,
  TableBody,
  TableCell,
  TableEmpty,
  TableHead,
  TableHeaderCell,
  TableRow,
  useToast,
  useToastMutation,
} from '@/components/ui';
import { LoadMore } from '@/components/ui/load-more';
import { PageContainer, PageHeader } from '@/components/layout';
import { useSession } from '@/lib/auth';
import { cn } from '@/lib/cn';
import { formatFullDate } from '@/lib/format';
import { rowsOf } from '@/lib/paging';
import { useSchools } from '@/lib/roster';
import { useConfirmedAction } from '@/lib/use-confirmed-action';
import { UserAdminMessages } from '../accounts.constants';
import {
  useDeleteUser,
  useUpdateUser,
  useUsersPages,
  useUserStatusCounts,
  type UserChange,
  type UsersFilters,
} from '../api/users';
import { ResetPasswordDialog } from './reset-password-dialog';

type StatusFilter = 'all' | 'pending' | 'approved';

/** The status filter as the server's `approved` filter (ADR 0042): Pending is `false`, Approved `true`. */
const APPROVED_FILTER: Record<StatusFilter, boolean | undefined> = {
  all: undefined,
  pending: false,
  approved: true,
};
type RoleFilter = NonNullable<UsersFilters['role']> | '';

/** The search is sent this long after the last keystroke (ADR 0042: the server searches a district's accounts). */
export const USER_SEARCH_DEBOUNCE_MS = 300;

function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), ms);
    return () => window.clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

const ROLE_FILTERS: Array<{ value: RoleFilter; label: string }> = [
  { value: '', label: 'All roles' },
  { value: 'student', label: 'Students' },
  { value: 'teacher', label: 'Teachers' },
  { value: 'administrator', label: 'Administrators' },
];

/** School and roster-role filters, shown where the district has schools (the one-school site has none). */
function RosterFilters({
  schoolId,
  role,
  onSchool,
  onRole,
}: {
  schoolId: string;
  role: RoleFilter;
  onSchool: (id: string) => void;
  onRole: (role: RoleFilter) => void;
}) {
  const schools = useSchools();
  if (!schools.data?.length) return null;
  return (
    <div className="mb-4 flex flex-wrap gap-3">
      <SelectField
        label="School"
        value={schoolId}
        onChange={(e) => onSchool(e.target.value)}
        className="w-full sm:w-64"
      >
        <option value="">All schools</option>
        {schools.data.map((s) => (
          <option key={s.id} value={s.id}>
            {s.name}
          </option>
        ))}
      </SelectField>
      <SelectField
        label="Roster role"
        value={role}
        onChange={(e) => onRole(e.target.value as RoleFilter)}
        className="w-full sm:w-48"
      >
        {ROLE_FILTERS.map((r) => (
          <option key={r.value} value={r.value}>
            {r.label}
          </option>
        ))}
      </SelectField>
    </div>
  );
}

export function AdminUsersPage() {
  const { user: me } = useSession();
  const [query, setQuery] = useState('');
  const [schoolId, setSchoolId] = useState('');
  const [role, setRole] = useState<RoleFilter>('');
  const [status, setStatus] = useState<StatusFilter>('all');
  const q = useDebounced(query.trim(), USER_SEARCH_DEBOUNCE_MS);
  const search = {
    q: q || undefined,
    schoolId: schoolId || undefined,
    role: role || undefined,
  };
  const filters: UsersFilters = { ...search, approved: APPROVED_FILTER[status] };
  const filtered = Boolean(filters.q || filters.schoolId || filters.role || status !== 'all');
  const users = useUsersPages(filters);
  // The status buttons' counts: the server's totals for the search, school and role, not the rows loaded so far.
  const counts = useUserStatusCounts(search);
  const update = useToastMutation(useUpdateUser(), {
    error: UserAdminMessages.userUpdateFailed,
    log: 'User update failed',
  });
  const deleteUser = useToastMutation(useDeleteUser(), {
    success: UserAdminMessages.userDeleted,
    error: UserAdminMessages.userDeleteFailed,
    log: 'User delete failed',
  });
  const { toast } = useToast();
  const [resetting, setResetting] = useState<User | null>(null);
  const [busyId, setBusyId] = useState<string | null>(null);

  // The rows loaded so far of every filter (the server searched and filtered them, status included).
  const rows = useMemo(() => rowsOf(users.data), [users.data]);
  const visible = rows.items;
  // A filter changed and its first page is on its way: the rows shown are the previous filter's.
  const stale = users.isPlaceholderData;

  const change = async (target: User, next: UserChange) => {
    // Self-protection (spec section 6): the server enforces it too; checking here saves a round trip.
    if (me && target.id === me.id) {
      if (next.kind === 'admin')
        return toast({ type: 'error', message: IdentityMessages.cannotChangeOwnAdmin });
      if (next.kind === 'role')
        return toast({ type: 'error', message: IdentityMessages.cannotChangeOwnRole });
      if (next.kind === 'approval' && !next.approved)
        return toast({ type: 'error', message: IdentityMessages.cannotSuspendOwnAccount });
    }
    setBusyId(target.id);
    await update.run(next);
    setBusyId(null);
  };

  const remove = useConfirmedAction(async (target: User) => {
    await deleteUser.run(target.id);
  });
  const deleting = remove.target;

  const askDelete = (target: User) => {
    if (me && target.id === me.id) {
      toast({ type: 'error', message: IdentityMessages.cannotDeleteOwnAccount });
      return;
    }
    remove.ask(target);
  };

  const countOf = (id: StatusFilter) => (counts.data ? ` (${counts.data[id]})` : '');
  const statusFilters: Array<{ id: StatusFilter; label: string }> = [
    { id: 'all', label: `All${countOf('all')}` },
    { id: 'pending', label: `Pending${countOf('pending')}` },
    { id: 'approved', label: `Approved${countOf('approved')}` },
  ];

  return (
    <PageContainer>
      <PageHeader
        title="User Management"
        description="Approve new accounts, set roles and administrator access, reset passwords and remove accounts."
        actions={
          <ButtonLink to="/admin" variant="outline">
            Back to Dashboard
          </ButtonLink>
        }
      />

      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div
          role="group"
          aria-label="Filter by status"
          className="inline-flex rounded-lg border border-slate-200 bg-white p-1"
        >
          {statusFilters.map((f) => (
            <button
              key={f.id}
              type="button"
              aria-pressed={status === f.id}
              onClick={() => setStatus(f.id)}
              className={cn(
                'rounded-md px-3 py-1.5 text-sm font-medium',
                status === f.id ? 'bg-brand-700 text-white' : 'text-slate-600 hover:bg-slate-100',
              )}
            >
              {f.label}
            </button>
          ))}
        </div>
        <label className="relative block sm:w-72">
          <span className="sr-only">Search users</span>
          <input
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder="Search by name, username or email"
            className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-600/20"
          />
        </label>
      </div>

      <RosterFilters schoolId={schoolId} role={role} onSchool={setSchoolId} onRole={setRole} />

      <QueryState
        query={users}
        loading="Loading users…"
        errorTitle={UserAdminMessages.usersLoadFailed}
        errorText="Please try again in a moment."
        retryLabel="Try again"
      >
        {() => (
          <Table caption="Users" busy={stale}>
            <TableHead>
              <tr>
                <TableHeaderCell>User</TableHeaderCell>
                <TableHeaderCell>Role</TableHeaderCell>
                <TableHeaderCell>Status</TableHeaderCell>
                <TableHeaderCell>Admin</TableHeaderCell>
                <TableHeaderCell>Joined</TableHeaderCell>
                <TableHeaderCell className="text-right">Actions</TableHeaderCell>
              </tr>
            </TableHead>
            <TableBody>
              {visible.length === 0 ? (
                <TableEmpty colSpan={6}>
                  {stale ? 'Loading users…' : filtered ? 'No users match your filters.' : 'No users yet.'}
                </TableEmpty>
              ) : (
                visible.map((u) => {
                  const self = me?.id === u.id;
                  const busy = busyId === u.id;
                  return (
                    <TableRow key={u.id} data-user-id={u.id}>
                      {/* At most 15rem wide: a long name or address breaks there instead of widening the table. */}
                      <TableCell>
                        <div className="max-w-60 font-semibold text-slate-900">
                          {u.name}
                          {self ? (
                            <span className="ml-1 text-xs font-normal text-slate-500">(you)</span>
                          ) : null}
                        </div>
                        <div className="max-w-60 text-xs text-slate-500">@{u.username}</div>
                        <div className="max-w-60 text-xs text-slate-500">{u.email}</div>
                      </TableCell>
                      <TableCell>
                        <label className="sr-only" htmlFor={`role-${u.id}`}>
                          Role for {u.name}
                        </label>
                        <select
                          id={`role-${u.id}`}
                          value={u.role}
                          disabled={busy}
                          onChange={(e) =>
                            void change(u, { kind: 'role', id: u.id, role: e.target.value as Role })
                          }
                          className="rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm"
                        >
                          <option value="student">Student</option>
                          <option value="teacher">Teacher</option>
                        </select>
                      </TableCell>
                      <TableCell>
                        <div className="flex flex-wrap items-center gap-2">
                          {u.approved ? (
                            <Badge tone="success">Approved</Badge>
                          ) : (
                            <Badge tone="warning">Pending</Badge>
                          )}
                          <Button
                            size="sm"
                            variant={u.approved ? 'outline' : 'success'}
                            disabled={busy}
                            aria-label={`${u.approved ? 'Suspend' : 'Approve'} ${u.name}`}
                            onClick={() =>
                              void change(u, { kind: 'approval', id: u.id, approved: !u.approved })
                            }
                          >
                            {u.approved ? 'Suspend' : 'Approve'}
                          </Button>
                        </div>
                      </TableCell>
                      <TableCell>
                        <button
                          type="button"
                          role="switch"
                          aria-checked={u.isAdmin}
                          aria-label={`Administrator: ${u.name}`}
                          disabled={busy}
                          onClick={() => void change(u, { kind: 'admin', id: u.id, isAdmin: !u.isAdmin })}
                          className={cn(
                            'relative inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors disabled:opacity-60',
                            u.isAdmin ? 'bg-violet-600' : 'bg-slate-300',
                          )}
                        >
                          <span
                            aria-hidden="true"
                            className={cn(
                              'inline-block size-5 rounded-full bg-white shadow transition-transform',
                              u.isAdmin ? 'translate-x-5' : 'translate-x-0.5',
                            )}
                          />
                        </button>
                      </TableCell>
                      <TableCell className="whitespace-nowrap text-xs">
                        {formatFullDate(u.createdAt)}
                      </TableCell>
                      <TableCell>
                        <div className="flex justify-end gap-2">
                          <Button
                            size="sm"
                            variant="outline"
                            aria-label={`Reset password for ${u.name}`}
                            onClick={() => setResetting(u)}
                          >
                            Reset Password
                          </Button>
                          <Button
                            size="sm"
                            variant="danger"
                            aria-label={`Delete ${u.name}`}
                            onClick={() => askDelete(u)}
                          >
                            Delete
                          </Button>
                        </div>
                      </TableCell>
                    </TableRow>
                  );
                })
              )}
            </TableBody>
          </Table>
        )}
      </QueryState>
      {users.data ? (
        <LoadMore
          shown={visible.length}
          total={rows.total}
          hasMore={rows.hasMore}
          loading={users.isFetchingNextPage}
          onLoadMore={() => void users.fetchNextPage()}
          noun="users"
          busy={stale}
        />
      ) : null}

      <ResetPasswordDialog user={resetting} onClose={() => setResetting(null)} />
      <ConfirmDialog
        open={deleting !== null}
        title="Delete user"
        message={
          deleting ? (
            <p>
              Are you sure you want to delete <strong>{deleting.name}</strong> ({deleting.email})? This
              removes the account and cannot be undone.
            </p>
          ) : null
        }
        confirmLabel="Delete User"
        busy={remove.busy}
        onConfirm={() => void remove.confirm()}
        onCancel={remove.cancel}
      />
    </PageContainer>
  );
}
