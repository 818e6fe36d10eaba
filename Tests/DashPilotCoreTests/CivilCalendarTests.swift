import DashPilotCore
import Testing

@Suite struct CivilCalendarTests {
  @Test(arguments: [
    (1970, 1, 1, 0), (2000, 3, 1, 11_017), (1980, 1, 6, 3_657), (2024, 2, 29, 19_782),
    (1969, 12, 31, -1), (2137, 1, 6, 61_001),
  ])
  func daysAndDatesAgree(year: Int, month: Int, day: Int, days: Int) {
    #expect(CivilCalendar.daysFromCivil(year: year, month: month, day: day) == days)
    let date = CivilCalendar.civilFromDays(days)
    #expect(date.year == year && date.month == month && date.day == day)
  }
}
