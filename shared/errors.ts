/** One field-level validation problem; `field` is a dotted path such as `to.1`. */
export interface FieldError {
  field: string;
  message: string;
}

/** The body of every failed request (CONTRACT §3). */
export interface ErrorBody {
  status: number;
  message: string;
  errors?: FieldError[];
  /** Only on /v1/send. */
  success?: false;
  timestamp?: string;
}

/** The success envelope of /v1 (except send) and /sandbox. */
export interface Envelope<T> {
  status: number;
  message: string;
  data: T;
}
