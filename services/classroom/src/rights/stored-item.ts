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
  createdAt: string;
  updatedAt: string;
};
