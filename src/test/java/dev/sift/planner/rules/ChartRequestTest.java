package dev.sift.planner.rules;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ChartRequestTest {
    @Test
    void theRequestWordsAreTakenOutAndWhatIsLeftIsTheQuestion() {
        assertThat(ChartRequest.read("Show me a chart of the average loan amount by status").orElseThrow())
                .isEqualTo(new ChartRequest("average loan amount by status", null));
        assertThat(ChartRequest.read("plot the total transaction amount per year").orElseThrow().question())
                .isEqualTo("total transaction amount per year");
    }

    @Test
    void aChartOfRowsWithNoMeasureCountsThem() {
        assertThat(ChartRequest.read("Show me a chart of loans per year").orElseThrow().question())
                .isEqualTo("number of loans per year");
    }

    @Test
    void theKindAskedForIsKeptWhereverTheRequestStands() {
        assertThat(ChartRequest.read("visualize the default rate by region as a bar chart").orElseThrow())
                .isEqualTo(new ChartRequest("default rate by region", "bar"));
        assertThat(ChartRequest.read("draw a pie chart of the number of cards by type").orElseThrow())
                .isEqualTo(new ChartRequest("number of cards by type", "pie"));
    }

    @Test
    void aQuestionWithoutAChartWordIsNoRequest() {
        assertThat(ChartRequest.read("How many loans are there?")).isEmpty();
    }
}
