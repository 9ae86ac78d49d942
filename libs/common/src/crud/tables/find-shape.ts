import { FindOptionsOrder, FindOptionsSelect } from 'typeorm';

/** What a find asks for besides its conditions. */
export interface FindShape<E> {
  select?: FindOptionsSelect<E>;
  order?: FindOptionsOrder<E>;
  take?: number;
  skip?: number;
}
