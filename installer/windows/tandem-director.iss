; Inno Setup 6 script: Tandem Director for one Windows user, no administrator rights needed.
;
; Built by `python installer\build.py --setup`, which first builds dist\tandem-director with
; PyInstaller and then runs:
;   ISCC /DAppVersion=0.1.0 /DSourceDir=...\dist\tandem-director /DIconFile=...\tandem-director.ico
;        /O...\dist installer\windows\tandem-director.iss
; The result is dist\tandem-director-VERSION-setup.exe: it installs into
; %LOCALAPPDATA%\Programs\Tandem Director (or Program Files when run "for all users"), adds a
; Start menu entry, opens .tandem files with the app, and is removed from Settings > Apps.
; Event files, settings and backups are the user's: the uninstaller leaves them.

#ifndef AppVersion
  #define AppVersion "0.0.0"
#endif
#ifndef SourceDir
  #define SourceDir "..\..\dist\tandem-director"
#endif
#ifndef IconFile
  #define IconFile "..\..\build\installer\icons\tandem-director.ico"
#endif
#define AppName "Tandem Director"
#define AppExe "tandem-director.exe"
#define ProgId "TandemDirector.Event"

[Setup]
; the AppId ties upgrades and the uninstaller to this app: never change it
AppId={{8E4D3C7A-5B2F-4A61-9C1D-7F3E2A9B6D40}
AppName={#AppName}
AppVersion={#AppVersion}
AppVerName={#AppName} {#AppVersion}
AppPublisher={#AppName}
VersionInfoVersion={#AppVersion}
DefaultDirName={autopf}\{#AppName}
DefaultGroupName={#AppName}
DisableProgramGroupPage=yes
DisableDirPage=auto
; per user by default (a club laptop's director is rarely its administrator)
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=dialog
OutputBaseFilename=tandem-director-{#AppVersion}-setup
SetupIconFile={#IconFile}
UninstallDisplayIcon={app}\{#AppExe}
UninstallDisplayName={#AppName}
Compression=lzma2/max
SolidCompression=yes
WizardStyle=modern
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
; Explorer refreshes its file icons after install and uninstall
ChangesAssociations=yes
; a running copy would lock its files: offer to close it
CloseApplications=yes

[Languages]
Name: "english"; MessagesFile: "compiler:Default.isl"

[Tasks]
Name: "association"; Description: "Open .tandem event files with {#AppName}"; GroupDescription: "File types:"
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked

[InstallDelete]
; an upgrade replaces the bundle whole: no module of the old version may linger
Type: filesandordirs; Name: "{app}\_internal"

[Files]
Source: "{#SourceDir}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{autoprograms}\{#AppName}"; Filename: "{app}\{#AppExe}"
Name: "{autodesktop}\{#AppName}"; Filename: "{app}\{#AppExe}"; Tasks: desktopicon

[Registry]
; HKA is HKEY_CURRENT_USER for a per-user install, HKEY_LOCAL_MACHINE for all users
Root: HKA; Subkey: "Software\Classes\.tandem\OpenWithProgids"; ValueType: string; ValueName: "{#ProgId}"; ValueData: ""; Flags: uninsdeletevalue; Tasks: association
Root: HKA; Subkey: "Software\Classes\.tandem"; ValueType: string; ValueName: ""; ValueData: "{#ProgId}"; Flags: uninsdeletevalue; Tasks: association
Root: HKA; Subkey: "Software\Classes\.tandem"; ValueType: string; ValueName: "Content Type"; ValueData: "application/x-tandem-event"; Flags: uninsdeletevalue; Tasks: association
Root: HKA; Subkey: "Software\Classes\{#ProgId}"; ValueType: string; ValueName: ""; ValueData: "{#AppName} event"; Flags: uninsdeletekey; Tasks: association
Root: HKA; Subkey: "Software\Classes\{#ProgId}\DefaultIcon"; ValueType: string; ValueName: ""; ValueData: "{app}\{#AppExe},0"; Tasks: association
Root: HKA; Subkey: "Software\Classes\{#ProgId}\shell\open\command"; ValueType: string; ValueName: ""; ValueData: """{app}\{#AppExe}"" ""%1"""; Tasks: association
Root: HKA; Subkey: "Software\Classes\Applications\{#AppExe}\SupportedTypes"; ValueType: string; ValueName: ".tandem"; ValueData: ""; Flags: uninsdeletekey; Tasks: association

[Run]
Filename: "{app}\{#AppExe}"; Description: "{cm:LaunchProgram,{#AppName}}"; Flags: nowait postinstall skipifsilent
