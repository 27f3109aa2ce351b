package dev.sift.cli;

/**
 * A {@code sift} subcommand contributed by a module the product does not depend on (the benchmarks), listed in
 * {@code META-INF/services/dev.sift.cli.CommandExtension}. The implementing class carries picocli's
 * {@code @Command} annotation like any built-in subcommand.
 */
public interface CommandExtension {
}
