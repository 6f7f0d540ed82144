package dev.svc.chat.reference.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.svc.chat.reference.model.Json;
import io.javalin.Javalin;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/** A bug becomes a 500 {@code internal} with the contract body and nothing of the stack trace. */
class ErrorMappingTest {

    @Test
    void unexpectedExceptionIsInternalWithoutDetails() throws Exception {
        Javalin app = Javalin.create(config -> {
            config.showJavalinBanner = false;
            config.startupWatcherEnabled = false;
        });
        ErrorMapping.install(app, new Responses(Json.newMapper()));
        app.get("/boom", ctx -> {
            throw new IllegalStateException("secret detail at com.example.Hidden");
        });
        app.start("127.0.0.1", 0);
        try {
            HttpResponse<String> response = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + app.port() + "/boom")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(500, response.statusCode());
            assertEquals("{\"error\":{\"code\":\"internal\",\"message\":\"Internal server error\"}}",
                    response.body());
            assertFalse(response.body().contains("secret"));
        } finally {
            app.stop();
        }
    }
}
