/** Who creates an item: the signed-in teacher or admin, as their token names them. */
export interface Creator {
  id: string;
  name: string;
}

/** The fields every stored classroom item has besides its own. */
export type StoredItem<T> = T & {
  id: string;
  creatorId: string | null;
  creatorName: string;
  /** The item's school (issue #36): its administrators may change the item; null for none. */
  schoolId: string | null;
  createdAt: string;
  updatedAt: string;
};
