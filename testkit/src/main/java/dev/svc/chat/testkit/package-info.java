/**
 * A test kit for apps built on the SDK: {@link dev.svc.chat.testkit.SvcTestServer}, a JUnit 5 extension that
 * runs the reference server in-process on a free port and on a {@link dev.svc.chat.testkit.VirtualClock}, mints
 * tokens, creates rooms, connects clients and closes them after the test, and shows the pushes and webhooks the
 * server sent.
 */
package dev.svc.chat.testkit;
