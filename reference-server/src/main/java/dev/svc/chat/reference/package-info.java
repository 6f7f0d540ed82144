/**
 * The reference server of the chat service contract: {@link dev.svc.chat.reference.ReferenceServer} to run it in-process, {@link dev.svc.chat.reference.Main} to run it from the command line.
 */
package dev.svc.chat.reference;
