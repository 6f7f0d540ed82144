/**
 * The chat rules shared by REST and the gateway, the contract's errors and input limits.
 */
package dev.svc.chat.reference.service;
