/**
 * The developer's workbench of the reference server: the dev API under {@code /v1/dev/} (state, faults, the
 * request log, acting as a user, sessions, snapshots) and the web console at {@code /console/} that calls it
 * (docs/console.md). On by default on a loopback bind only ({@link dev.svc.chat.reference.dev.DevAccess}).
 */
package dev.svc.chat.reference.dev;
