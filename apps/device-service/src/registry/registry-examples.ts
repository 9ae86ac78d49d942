/**
 * The example server, device and secret of device-service's document: the registry saves create them and the
 * device calls name them, so "Try it out" walks save → token → push. Not the numbers scripts/device-simulator.sh
 * registers (DAS-0001, DAD-0001): a save example after a simulator run would be refused as taken.
 */
export const EXAMPLE_NUMBER = { device: 'DAD-0042', server: 'DAS-0042' } as const;
export const EXAMPLE_SECRET = 'correct-horse-battery-staple';
