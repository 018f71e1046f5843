/**
 * Key look-ups in flight per client address, in this process: one address cannot fill the shared
 * look-up queue (ApiKeyCache's 4 running and 256 waiting) and make other clients' valid keys wait or fail.
 */
export class LookupsInFlight {
  private readonly counts = new Map<string, number>();

  constructor(private readonly perAddress: number) {}

  /** False when `address` already has its share in flight. */
  start(address: string): boolean {
    const count = this.counts.get(address) ?? 0;
    if (count >= this.perAddress) return false;
    this.counts.set(address, count + 1);
    return true;
  }

  end(address: string): void {
    const count = (this.counts.get(address) ?? 1) - 1;
    if (count <= 0) this.counts.delete(address);
    else this.counts.set(address, count);
  }
}
