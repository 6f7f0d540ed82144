/**
 * The contract's JSON shapes (User, Room, Message, settings) as immutable records, and the one Jackson configuration.
 */
package dev.svc.chat.reference.model;
