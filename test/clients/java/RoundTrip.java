import backoffice.device.api.DeviceDataAcquisitionDeviceApi;
import backoffice.device.api.DeviceDataAcquisitionDeviceRegistryApi;
import backoffice.device.model.DataAcquisitionDeviceSave;
import backoffice.device.model.DeviceInfoPush;
import backoffice.device.model.TokenKeyResult;
import backoffice.main.api.ConfigurationDataDictionaryApi;
import backoffice.main.api.MessageEmailApi;
import backoffice.main.model.DataDictionary;
import backoffice.main.model.DataDictionaryFilter;
import backoffice.main.model.DataDictionaryOrNull;
import backoffice.main.model.DataDictionaryPageRequest;
import backoffice.main.model.DataDictionaryPageResult;
import backoffice.main.model.DataDictionarySave;
import backoffice.main.model.DataDictionaryUpdate;
import backoffice.main.model.EmailOrNull;
import backoffice.main.model.EmailPageRequest;
import backoffice.main.model.EmailSave;
import backoffice.main.model.HistoryEntry;
import backoffice.main.model.HistoryEntryPageResult;
import backoffice.main.model.HistoryPageRequest;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Consumer;

/**
 * A round trip through the Java clients OpenAPI Generator makes from both documents (`-g java --library
 * native`), as a client team would write it: save, page with and without a filter, getById found and
 * missing, an update of one field that keeps the others, removeByIds of two ids, the recycle bin (deletedPage,
 * restoreById, purgeByIds), the purged record's history (historyPage), an e-mail time in epoch milliseconds, one registry call and one device call with a device token. One `ok`/`not ok` line per check.
 *
 * Usage: java RoundTrip http://127.0.0.1:PORT BEARER_TOKEN RUN_ID
 */
public class RoundTrip {
  static int failed = 0;

  static void check(String name, boolean passed, Object seen) {
    if (!passed) failed++;
    System.out.println((passed ? "ok - java: " : "not ok - java: ") + name + (passed ? "" : " (saw " + seen + ")"));
  }

  /** The native library leaves authentication to the caller: a request interceptor adds it. */
  static Consumer<HttpRequest.Builder> bearer(String token) {
    return builder -> builder.header("Authorization", "Bearer " + token);
  }

  /** A device token travels as query parameter `token` (security scheme deviceToken). */
  static Consumer<HttpRequest.Builder> deviceToken(String token) {
    return builder -> {
      URI uri = builder.build().uri();
      String separator = uri.getRawQuery() == null ? "?" : "&";
      builder.uri(URI.create(uri + separator + "token=" + URLEncoder.encode(token, StandardCharsets.UTF_8)));
    };
  }

  public static void main(String[] args) throws Exception {
    String base = args[0];
    String token = args[1];
    String run = args[2];

    backoffice.main.ApiClient main = new backoffice.main.ApiClient();
    main.updateBaseUri(base);
    main.setRequestInterceptor(bearer(token));
    ConfigurationDataDictionaryApi dictionaries = new ConfigurationDataDictionaryApi(main);

    String type = "java-" + run;
    String first = "javaA" + run;
    String second = "javaB" + run;
    var saved = dictionaries.dataDictionarySave(
        new DataDictionarySave().dataDictionaryId(first).dataDictionaryTypeCode(type).dataDictionaryCode("male").name("Male").value("1").sort(5));
    check("save answers status 200, data true", saved.getStatus() == 200 && Boolean.TRUE.equals(saved.getData()), saved);
    dictionaries.dataDictionarySave(
        new DataDictionarySave().dataDictionaryId(second).dataDictionaryTypeCode(type).dataDictionaryCode("female").name("Female").sort(6));

    DataDictionaryPageResult all = dictionaries.dataDictionaryPage(new DataDictionaryPageRequest().current(1).pageSize(1000));
    check("page without a filter lists both records", all.getStatus() == 200 && ids(all.getData()).containsAll(List.of(first, second)), all.getData());
    DataDictionaryPageResult filtered =
        dictionaries.dataDictionaryPage(new DataDictionaryPageRequest().dataDictionaryTypeCode(type).current(1).pageSize(10));
    check("page with a filter: exactly the two, total 2", filtered.getData().size() == 2 && filtered.getExtraData().getTotal() == 2, filtered);

    DataDictionaryOrNull found = dictionaries.dataDictionaryGetById(first).getData();
    check("getById finds the record (revision a Long)", found != null && "Male".equals(found.getName()) && found.getRevision() == 1L, found);
    var missing = dictionaries.dataDictionaryGetById("javaMissing" + run);
    check("getById of a missing id: status 200, data null", missing.getStatus() == 200 && missing.getData() == null, missing);

    var updated = dictionaries.dataDictionaryUpdateById(new DataDictionaryUpdate().dataDictionaryId(first).name("Man"));
    DataDictionaryOrNull after = dictionaries.dataDictionaryGetById(first).getData();
    check("updateById of name only answers true", Boolean.TRUE.equals(updated.getData()), updated);
    check(
        "updateById changed name and kept sort, value and code",
        after != null && "Man".equals(after.getName()) && after.getSort() == 5 && "1".equals(after.getValue())
            && "male".equals(after.getDataDictionaryCode()) && after.getRevision() == 2L,
        after);

    var removed = dictionaries.dataDictionaryRemoveByIds(List.of(first, second));
    var left = dictionaries.dataDictionaryCount(new DataDictionaryFilter().dataDictionaryTypeCode(type));
    check("removeByIds of two ids: true, none left", Boolean.TRUE.equals(removed.getData()) && left.getData() == 0L, left);

    DataDictionaryPageResult binned =
        dictionaries.dataDictionaryDeletedPage(new DataDictionaryPageRequest().dataDictionaryTypeCode(type).current(1).pageSize(10));
    check("deletedPage shows both, each with its deleteTime",
        ids(binned.getData()).containsAll(List.of(first, second)) && binned.getData().stream().allMatch(r -> r.getDeleteTime() != null), binned);
    var restored = dictionaries.dataDictionaryRestoreById(first);
    DataDictionaryOrNull back = dictionaries.dataDictionaryGetById(first).getData();
    check("restoreById brings the record back, revision raised",
        Boolean.TRUE.equals(restored.getData()) && back != null && back.getRevision() == 3L && back.getDeleteTime() == null, back);
    var purged = dictionaries.dataDictionaryPurgeByIds(List.of(second));
    var again = dictionaries.dataDictionaryRestoreById(second);
    check("purgeByIds removes for good: restoring it finds nothing",
        Boolean.TRUE.equals(purged.getData()) && Boolean.FALSE.equals(again.getData()), again);
    HistoryEntryPageResult history = dictionaries.dataDictionaryHistoryPage(new HistoryPageRequest().recordId(second).current(1).pageSize(10));
    List<HistoryEntry> entries = history.getData();
    check("historyPage: the purged record's entries, newest first, values blanked",
        !entries.isEmpty() && entries.get(0).getAction() == HistoryEntry.ActionEnum.PURGE
            && entries.get(entries.size() - 1).getAction() == HistoryEntry.ActionEnum.CREATE
            && entries.stream().allMatch(entry -> Boolean.TRUE.equals(entry.getPurged())),
        history);
    dictionaries.dataDictionaryRemoveById(first);

    MessageEmailApi emails = new MessageEmailApi(main);
    long sendTime = 1767225600123L; // beyond 32 bits
    String emailId = "javaMail" + run;
    emails.emailSave(new EmailSave().emailId(emailId).fromAddress("noreply@example.com").toAddresses(List.of("alice@example.com"))
        .subject("Hello").content("Hi").status(EmailSave.StatusEnum.SENT).sendTime(sendTime));
    EmailOrNull email = emails.emailGetById(emailId).getData();
    check("an e-mail's sendTime reads back as the same epoch milliseconds", email != null && email.getSendTime() == sendTime, email);
    var page = emails.emailPage(new EmailPageRequest().current(1).pageSize(1000));
    check("an unfiltered e-mail page shows a SENT e-mail", page.getData().stream().anyMatch(e -> emailId.equals(e.getEmailId())), page.getExtraData());

    backoffice.device.ApiClient registryClient = new backoffice.device.ApiClient();
    registryClient.updateBaseUri(base);
    registryClient.setRequestInterceptor(bearer(token));
    String deviceNo = "JAVA-" + run;
    String secret = "java-provisioning-secret-" + run;
    var registered = new DeviceDataAcquisitionDeviceRegistryApi(registryClient)
        .dataAcquisitionDeviceSave(new DataAcquisitionDeviceSave().dataAcquisitionDeviceNo(deviceNo).name("Java device").secret(secret));
    check("registry: save a device", Boolean.TRUE.equals(registered.getData()), registered);

    backoffice.device.ApiClient deviceClient = new backoffice.device.ApiClient();
    deviceClient.updateBaseUri(base);
    TokenKeyResult key = new DeviceDataAcquisitionDeviceApi(deviceClient).dataAcquisitionDeviceGetGenerationTokenKeyByDataAcquisitionDeviceNo(secret, deviceNo);
    check("device: token for number and secret (expiresAt a Long)", key.getData() != null && key.getData().getExpiresAt() > 1_700_000_000_000L, key);
    deviceClient.setRequestInterceptor(deviceToken(key.getData().getToken()));
    DeviceDataAcquisitionDeviceApi device = new DeviceDataAcquisitionDeviceApi(deviceClient);
    var pushed = device.dataAcquisitionDevicePushInfoByDataAcquisitionDeviceNo(deviceNo, new DeviceInfoPush().firmwareVersion("2.4.1").batteryLevel(87));
    var own = device.dataAcquisitionDeviceGetByDataAcquisitionDeviceNo(deviceNo).getData();
    check(
        "device: pushInfo, then its own record shows the report",
        Boolean.TRUE.equals(pushed.getData()) && own != null && "2.4.1".equals(own.getFirmwareVersion()) && own.getLastSeenTime() != null,
        own);

    System.exit(failed == 0 ? 0 : 1);
  }

  static List<String> ids(List<DataDictionary> records) {
    return records.stream().map(DataDictionary::getDataDictionaryId).toList();
  }
}
