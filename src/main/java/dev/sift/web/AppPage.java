package dev.sift.web;

import io.javalin.http.Context;

/**
 * The app's page, with this launch's CSRF token in a {@code <meta name="sift-csrf">} tag that the app's script
 * reads and sends back on every change; other sites cannot read the page, so they cannot send the token.
 */
final class AppPage {
    private final String html;

    AppPage(String csrf) {
        String page = Report.resource("/web/index.html");
        this.html = page.replaceFirst("<head>", "<head>\n  <meta name=\"sift-csrf\" content=\"" + csrf + "\">");
    }

    void serve(Context ctx) {
        ctx.header("Cache-Control", "no-store").contentType("text/html; charset=utf-8").result(html);
    }
}
