/**
 * Webhook delivery in the Standard Webhooks scheme: signing, asynchronous delivery with retries.
 */
package dev.svc.chat.reference.webhook;
