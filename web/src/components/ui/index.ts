export { Alert } from './alert';
export { Badge, type BadgeTone } from './badge';
export {
  Button,
  ButtonLink,
  buttonClasses,
  type ButtonProps,
  type ButtonVariant,
  type ButtonSize,
} from './button';
export { Card, CardBody, CardFooter, CardHeader } from './card';
export { ConfirmDialog, type ConfirmDialogProps } from './confirm-dialog';
export { SelectField, TextAreaField, TextField } from './form-field';
export { Modal, type ModalProps } from './modal';
export { FullPageSpinner, Spinner } from './spinner';
export { Table, TableBody, TableCell, TableEmpty, TableHead, TableHeaderCell, TableRow } from './table';
export { Tabs, type TabItem, type TabsProps } from './tabs';
export {
  ToastProvider,
  useToast,
  defaultToastDuration,
  type ToastApi,
  type ToastOptions,
  type ToastType,
} from './toast';
export {
  QueryState,
  type QueryErrorView,
  type QueryStateProps,
  type QueryStateSource,
  type RetryLabel,
} from './query-state';
export {
  useToastMutation,
  type MutationOutcome,
  type ToastMutation,
  type ToastMutationMessages,
} from './use-toast-mutation';
