// Provisioning secrets are hashed at the lowest allowed cost: the device suites hash hundreds of them, and
// at the default cost those hashes were the largest single share of the suites' CPU time. The default cost
// and the cost a hash carries are checked in secret-hash.spec.ts and device-service.config.spec.ts.
process.env.DEVICE_SECRET_HASH_COST ??= '10';
