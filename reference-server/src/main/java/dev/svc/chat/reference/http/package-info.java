/**
 * The REST API: one routes class, small handlers per resource, and the error mapping.
 */
package dev.svc.chat.reference.http;
