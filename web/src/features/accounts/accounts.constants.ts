/** User management texts of the spec (sections 5, 6 and 8) not already in @district/contracts. */
export const UserAdminMessages = {
  userDeleted: 'User deleted successfully',
  userDeleteFailed: 'Failed to delete user',
  passwordResetFailed: 'Failed to reset password',
  passwordResetDone: 'Password reset successfully',
  userUpdateFailed: 'Failed to update user',
  usersLoadFailed: 'Failed to load users',
} as const;
