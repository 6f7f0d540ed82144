/**
 * Android bindings of the chat SDK: callbacks on the main thread. App visibility and network
 * bindings for the session manager come with the Android issue.
 */
package dev.svc.chat.android;
