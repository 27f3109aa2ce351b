package dev.sift.planner;

import dev.sift.TestDatasets;
import dev.sift.data.Workspace;

import java.util.Locale;
import java.util.Map;

/**
 * Small files shaped like the real ones the development sets were written on: species habitat shares by county (three
 * species, twelve counties, shares of one) and census counts of people by job, sex and year. Made here, so the tests
 * need none of the real files.
 */
final class RealShapedFiles {
    private RealShapedFiles() { }

    /** species(common_name, county_id, habitat_yearround_pct): 3 species × 12 counties, shares of one. */
    static Workspace habitats() throws Exception {
        StringBuilder species = new StringBuilder("common_name,county_id,habitat_yearround_pct\n");
        String[] kinds = {"American Robin", "American Bullfrog", "White-tailed Deer"};
        for (int county = 0; county < 12; county++) {
            for (int k = 0; k < kinds.length; k++) {
                species.append(kinds[k]).append(",0").append(1001 + county).append(',')
                        .append(String.format(Locale.ROOT, "%.2f", ((county * 7 + k * 3) % 11) / 10.0)).append('\n');
            }
        }
        return Workspace.open(TestDatasets.csv("wildlife", Map.of("species.csv", species.toString())), Workspace.Limits.defaults());
    }

    /** jobs(job, sex, year, count): 3 jobs × 2 sexes × the censuses 1900, 1910, 1920. */
    static Workspace census() throws Exception {
        StringBuilder counts = new StringBuilder("job,sex,year,count\n");
        String[] jobs = {"Teacher", "Farmer", "Nurse"};
        for (int y = 1900; y <= 1920; y += 10) {
            for (int j = 0; j < jobs.length; j++) {
                counts.append(jobs[j]).append(",men,").append(y).append(',').append(1000 * (j + 1) + y % 7).append('\n');
                counts.append(jobs[j]).append(",women,").append(y).append(',').append(700 * (3 - j) + y % 11).append('\n');
            }
        }
        return Workspace.open(TestDatasets.csv("census", Map.of("jobs.csv", counts.toString())), Workspace.Limits.defaults());
    }
}
