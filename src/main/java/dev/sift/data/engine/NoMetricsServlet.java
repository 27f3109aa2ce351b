package dev.sift.data.engine;

import org.apache.spark.SparkConf;
import org.apache.spark.metrics.sink.MetricsServlet;

import java.util.Properties;

/**
 * Spark's default metrics sink serves JSON through its UI's servlet classes, which need the Servlet 5 API;
 * Sift's web server runs Jetty 12 on Servlet 6, and Sift never serves Spark's UI. This sink registers no handler,
 * so a SparkContext starts beside the web server ({@code spark.metrics.conf.*.sink.servlet.class}).
 */
public final class NoMetricsServlet extends MetricsServlet {
    public NoMetricsServlet(Properties property, com.codahale.metrics.MetricRegistry registry) {
        super(property, registry);
    }

    @Override
    public org.sparkproject.jetty.servlet.ServletContextHandler[] getHandlers(SparkConf conf) {
        return new org.sparkproject.jetty.servlet.ServletContextHandler[0];
    }
}
