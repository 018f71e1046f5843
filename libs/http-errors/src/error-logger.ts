/**
 * The library's logger port: what it needs to say, in its own terms. The app hands it an adapter to
 * whatever logger it runs (its fields, its way of tying a line to a request); the library never sees it.
 */
export interface ErrorLogger {
  /** A fault of ours while answering the request with this id: logged with its stack, never sent. */
  error(message: string, requestId: string, stack?: string): void;
}
