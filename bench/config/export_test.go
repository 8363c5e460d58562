package config

// ReadCPUs exposes how -cpus is read for a machine of a test's making.
var ReadCPUs = readCPUs
