; Inno Setup 6 script: Wartable's Windows installer, wrapping the PyInstaller bundle.
; On Windows, from the repository root, after building installers\dist\wartable\ with
; installers\pyinstaller\wartable.spec (installers\README.md has every command):
;
;   iscc installers\windows\wartable.iss
;
; Output: installers\dist\wartable-<version>-windows-x64-setup.exe. The version is read
; from wartable.exe's version resource (the spec writes wartable.__version__ there);
; `iscc /DAppVersion=X.Y.Z ...` overrides it. Installs per user without admin rights, or
; for all users when run as admin (the dialog offers both).

#define Bundle AddBackslash(SourcePath) + "..\dist\wartable"
#ifndef AppVersion
  #define AppVersion GetStringFileInfo(Bundle + "\wartable.exe", "ProductVersion")
#endif
#if AppVersion == ""
  #error Build installers\dist\wartable first (no version in wartable.exe)
#endif

[Setup]
AppId={{0E02D189-2923-4880-A6D7-E86C1DE8DDF9}
AppName=Wartable
AppVersion={#AppVersion}
AppVerName=Wartable {#AppVersion}
AppPublisher=Wartable
DefaultDirName={autopf}\Wartable
DisableProgramGroupPage=yes
OutputDir={#SourcePath}..\dist
OutputBaseFilename=wartable-{#AppVersion}-windows-x64-setup
SetupIconFile={#SourcePath}..\..\assets\icons\wartable.ico
UninstallDisplayIcon={app}\wartable.exe
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=dialog
ChangesAssociations=yes
Compression=lzma2/max
SolidCompression=yes
WizardStyle=modern

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked

[Files]
Source: "{#Bundle}\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{autoprograms}\Wartable"; Filename: "{app}\wartable.exe"
Name: "{autodesktop}\Wartable"; Filename: "{app}\wartable.exe"; Tasks: desktopicon

[Registry]
; The file type of saves. Explorer takes a file's type from its last extension only, so a
; *.wartable.json save is a ".json" file to Windows and *.wartable.json.gz a ".gz" one:
; Wartable is offered under "Open with" for both, without taking them over from the
; user's editor or archiver.
Root: HKA; Subkey: "Software\Classes\Wartable.Save"; ValueType: string; ValueName: ""; ValueData: "Wartable saved game"; Flags: uninsdeletekey
Root: HKA; Subkey: "Software\Classes\Wartable.Save\DefaultIcon"; ValueType: string; ValueName: ""; ValueData: "{app}\wartable.exe,0"
Root: HKA; Subkey: "Software\Classes\Wartable.Save\shell\open\command"; ValueType: string; ValueName: ""; ValueData: """{app}\wartable.exe"" ""%1"""
Root: HKA; Subkey: "Software\Classes\.json\OpenWithProgids"; ValueType: string; ValueName: "Wartable.Save"; ValueData: ""; Flags: uninsdeletevalue
Root: HKA; Subkey: "Software\Classes\.gz\OpenWithProgids"; ValueType: string; ValueName: "Wartable.Save"; ValueData: ""; Flags: uninsdeletevalue
Root: HKA; Subkey: "Software\Classes\Applications\wartable.exe"; ValueType: string; ValueName: "FriendlyAppName"; ValueData: "Wartable"; Flags: uninsdeletekey
Root: HKA; Subkey: "Software\Classes\Applications\wartable.exe\SupportedTypes"; ValueType: string; ValueName: ".json"; ValueData: ""
Root: HKA; Subkey: "Software\Classes\Applications\wartable.exe\SupportedTypes"; ValueType: string; ValueName: ".gz"; ValueData: ""
Root: HKA; Subkey: "Software\Classes\Applications\wartable.exe\shell\open\command"; ValueType: string; ValueName: ""; ValueData: """{app}\wartable.exe"" ""%1"""

[Run]
Filename: "{app}\wartable.exe"; Description: "{cm:LaunchProgram,Wartable}"; Flags: nowait postinstall skipifsilent
