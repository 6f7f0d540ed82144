/**
 * The chat rules shared by REST and the gateway: sends, rooms, message actions, calls, push, and where
 * their realtime events go.
 */
package dev.svc.chat.reference.service;
