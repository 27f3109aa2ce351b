package dev.sift.cli;

import dev.sift.Sift;
import dev.sift.web.WebServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

@Command(name = "serve", description = "Serve the web app and the HTTP API (Ctrl-C stops it).")
final class ServeCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--kg", paramLabel = "[NAME=]FILE", description = "a knowledge file for dataset NAME (a bare"
            + " shop.kg.yaml is for dataset shop), instead of $SIFT_HOME/kg/NAME.kg.yaml; repeatable")
    java.util.List<String> kg = java.util.List.of();

    @Option(names = "--port", defaultValue = "7860", description = "port (default: ${DEFAULT-VALUE}; 0 picks a free one)")
    int port;

    @Option(names = "--host", defaultValue = "127.0.0.1",
            description = "address to bind (default: ${DEFAULT-VALUE}); beyond loopback SIFT_TOKEN must be set")
    String host;

    @Option(names = "--allowed-host", paramLabel = "NAME",
            description = "a host name the server may be reached by besides loopback and --host (repeatable);"
                    + " other Host headers get 403 (DNS rebinding)")
    java.util.List<String> allowedHosts = new java.util.ArrayList<>();

    @Option(names = "--max-upload-mb", defaultValue = "100", description = "largest upload in MB (default: ${DEFAULT-VALUE})")
    long maxUploadMb;

    @Override
    public Integer call() throws Exception {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("--port must be from 0 to 65535, got " + port);
        }
        Sift sift = Runtime.sift();
        kg.forEach(k -> KgFileOption.useNamed(sift, k));
        sift.dataset(Sift.DEMO_DATASET, new ConsoleProgress(spec.commandLine().getErr(), "Building dataset 'bank'"));
        String token = Runtime.config().token();
        WebServer.Options o = WebServer.Options.defaults().withHost(host).withPort(port).withToken(token)
                .withMaxUploadBytes(maxUploadMb * 1024 * 1024).withAllowedHosts(allowedHosts)
                .withMaxJsonBytes(Runtime.config().maxJsonBytes());
        WebServer server = WebServer.start(sift, o);
        CountDownLatch stopped = new CountDownLatch(1);
        java.lang.Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }));
        var out = spec.commandLine().getOut();
        out.println("Sift is serving " + server.url() + "/ (planner: " + sift.planner().name()
                + (token == null || token.isBlank() ? "" : "; API token required") + "). Ctrl-C stops it.");
        out.flush();
        stopped.await();
        return 0;
    }
}
