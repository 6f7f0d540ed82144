package dev.svc.chat.reference.files;

/**
 * A message that referenced a file when it was stored. Whether it still does (not deleted, the part not edited
 * away) is checked against the message whenever it matters, so the record needs no update on edit or delete.
 *
 * @param roomId the message's room
 * @param messageId the message
 */
public record FileRef(String roomId, String messageId) {
}
