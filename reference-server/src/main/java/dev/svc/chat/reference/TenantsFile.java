package dev.svc.chat.reference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the tenants of a {@code --tenants-file}: a JSON object with a {@code tenants} array, each item
 * {@code {id, apiKey, autoCreateUsers?, callsEnabled?, webhookUrl?, webhookSecret?}}. A file keeps the keys
 * out of the process list, where a {@code --tenant id:key} argument shows.
 */
final class TenantsFile {

    private TenantsFile() {
    }

    /** Returns the tenants of the file, else throws {@link IllegalArgumentException} saying what is wrong. */
    static List<TenantConfig> read(Path path) {
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(Files.readAllBytes(path));
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read tenants file " + path + ": " + e.getMessage());
        }
        JsonNode tenants = root == null ? null : root.get("tenants");
        if (tenants == null || !tenants.isArray()) {
            throw new IllegalArgumentException("tenants file " + path + " must be {\"tenants\": [...]}");
        }
        List<TenantConfig> configs = new ArrayList<>();
        for (JsonNode item : tenants) {
            if (!item.isObject()) {
                throw new IllegalArgumentException("tenants file " + path + ": each tenant must be an object");
            }
            configs.add(new TenantConfig(text(item, "id", true, path), text(item, "apiKey", true, path),
                    bool(item, "autoCreateUsers", path), bool(item, "callsEnabled", path),
                    text(item, "webhookUrl", false, path), text(item, "webhookSecret", false, path)));
        }
        return configs;
    }

    private static String text(JsonNode item, String field, boolean required, Path path) {
        JsonNode value = item.get(field);
        if (value == null || value.isNull()) {
            if (required) {
                throw new IllegalArgumentException("tenants file " + path + ": a tenant lacks " + field);
            }
            return null;
        }
        if (!value.isTextual()) {
            throw new IllegalArgumentException("tenants file " + path + ": " + field + " must be a string");
        }
        return value.textValue();
    }

    private static boolean bool(JsonNode item, String field, Path path) {
        JsonNode value = item.get(field);
        if (value == null || value.isNull()) {
            return true;
        }
        if (!value.isBoolean()) {
            throw new IllegalArgumentException("tenants file " + path + ": " + field + " must be true or false");
        }
        return value.booleanValue();
    }
}
