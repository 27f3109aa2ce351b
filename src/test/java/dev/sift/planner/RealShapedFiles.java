package dev.sift.planner;

import dev.sift.TestDatasets;
import dev.sift.data.Workspace;

import java.util.Locale;
import java.util.Map;

/**
 * Small files shaped like the real ones the development sets were written on: species habitat shares by county (three
 * species, twelve counties, shares of one), census counts of people by job, sex and year, candidates' filings and a week
 * of earthquakes. Made here, so the tests
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

    /** political_contributions: six candidates' filings (names last name first, money and loan columns, a coverage end date). */
    static Workspace filings() throws Exception {
        return Workspace.open(TestDatasets.csv("filings", Map.of("political_contributions.csv", """
                Candidate_Identification,Candidate_Name,Candidate_State,Party_Affiliation,Total_Disbursements,Total_Receipts,Debts_Owed_By,Coverage_End_Date,Loans_from_Candidate,Other_Loans,Candidate_Loan_Repayments
                H1,"SMITH, ANN",CA,DEM,3500,4000,0,2015-03-31,0,0,0
                H2,"JONES, BOB",CA,REP,200,15000,12000,2015-06-30,2500,0,100
                H3,"LEE, CARL E.",WA,DEM,2900,2000,500,2015-12-31,0,400,0
                H4,"KIM, DORA",WA,REP,1000,5200,25000,2015-09-30,700,0,0
                H5,"DIAZ, EVA",OR,DEM,3100,3000,0,2015-01-31,0,0,50
                H6,"PARK, FAY",CA,REP,700,900,300,2015-02-28,0,0,0
                """)), Workspace.Limits.defaults());
    }

    /** earthquakes(id, mag, place, time, type, status, tsunami, magType): 150 events of one week in five places. */
    static Workspace quakes() throws Exception {
        StringBuilder events = new StringBuilder("id,mag,place,time,type,status,tsunami,magType\n");
        String[] places = {"km N of Ely, Nevada", "km S of Reno, NV", "km E of Moab, Utah", "km off the Gulf of Alaska", "km W of Hilo, Hawaii"};
        for (int i = 0; i < 150; i++) { // more places than the graph lists: mentioned names are found through the value file
            events.append("ev").append(i).append(',').append((i * 37 % 150) / 25.0).append(",\"").append(i + 1).append(places[i % 5]).append("\",2018-02-0")
                    .append(1 + i % 7).append(" 10:00:00,").append(i % 8 == 0 ? "explosion" : "earthquake").append(',')
                    .append(i % 3 == 0 ? "automatic" : "reviewed").append(',').append(i % 13 == 0 ? 1 : 0).append(',')
                    .append(i % 2 == 0 ? "ml" : "md").append('\n');
        }
        return Workspace.open(TestDatasets.csv("feed", Map.of("earthquakes.csv", events.toString())), Workspace.Limits.defaults());
    }
}
