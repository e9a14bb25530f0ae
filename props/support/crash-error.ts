// The error every call of a dead process (or of any process after a power failure) rejects with.
export class SimulatedCrash extends Error {
  override readonly name = "SimulatedCrash";
  constructor(readonly operation: string, readonly index: number) {
    super(`simulated crash ${index < 0 ? "after the run" : `before mutation #${index}`}: ${operation}`);
  }
}

export const isSimulatedCrash = (u: unknown): u is SimulatedCrash => u instanceof SimulatedCrash;
