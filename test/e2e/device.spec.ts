/**
 * device-service: the device calls, the combined local server, the registry of servers and devices,
 * device tokens (issue, expiry, throttling, revocation across replicas, the limits per address and number), and no messaging (KAFKA_BROKERS ignored).
 * The cases live in ./device/ and run in this one file because Jest loads the app's modules once per
 * test file; each case module boots its own app(s) in its own describe.
 */
import './device/device-calls';
import './device/device-combined-server';
import './device/device-registry';
import './device/device-token-revocation';
import './device/device-token';
import './device/device-without-messaging';
import './device/device-token-limits';
